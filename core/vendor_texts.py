"""Sentences of Django and DRF that the site can show a reader, said again in the site's voice.

Their own Chinese catalogues address the reader as 您; the site says 你 everywhere (lessons,
puzzles, pages, mails). The project's catalogue (``locale/``, first in ``LOCALE_PATHS``) gives
these sentences with 你, and listing them here keeps them there when the catalogue is
regenerated (``makemessages`` keeps only what the sources mark).
"""

from django.utils.translation import gettext_noop

TEXTS = (
    # DRF: an API request refused for lack of permission
    gettext_noop("You do not have permission to perform this action."),
    # Django and DRF: an upload that is not an image
    gettext_noop(
        "Upload a valid image. The file you uploaded was either not an image or a corrupted image."
    ),
    # Django's page for a form refused by the CSRF check
    gettext_noop(
        "You are seeing this message because this site requires a CSRF cookie when submitting "
        "forms. This cookie is required for security reasons, to ensure that your browser is not "
        "being hijacked by third parties."
    ),
    gettext_noop(
        "If you have configured your browser to disable cookies, please re-enable them, at least "
        "for this site, or for “same-origin” requests."
    ),
    gettext_noop(
        "You are seeing this message because this HTTPS site requires a “Referer header” to be "
        "sent by your web browser, but none was sent. This header is required for security "
        "reasons, to ensure that your browser is not being hijacked by third parties."
    ),
    gettext_noop(
        "If you have configured your browser to disable “Referer” headers, please re-enable "
        "them, at least for this site, or for HTTPS connections, or for “same-origin” requests."
    ),
    gettext_noop(
        'If you are using the <meta name="referrer" content="no-referrer"> tag or including the '
        "“Referrer-Policy: no-referrer” header, please remove them. The CSRF protection requires "
        "the “Referer” header to do strict referer checking. If you’re concerned about privacy, "
        'use alternatives like <a rel="noreferrer" …> for links to third-party sites.'
    ),
    # Django's page for a site with no URLs (DEBUG on)
    gettext_noop(
        'You are seeing this page because <a href="https://docs.djangoproject.com/en/'
        '%(version)s/ref/settings/#debug" target="_blank" rel="noopener">DEBUG=True</a> is in '
        "your settings file and you have not configured any URLs."
    ),
    # the admin, which staff read
    gettext_noop("Forgotten your password or username?"),
    gettext_noop("Thanks for spending some quality time with the web site today."),
    gettext_noop(
        "There’s been an error. It’s been reported to the site administrators via email and "
        "should be fixed shortly. Thanks for your patience."
    ),
    gettext_noop(
        "You are authenticated as %(username)s, but are not authorized to access this page. "
        "Would you like to login to a different account?"
    ),
    gettext_noop("You may edit it again below."),
)

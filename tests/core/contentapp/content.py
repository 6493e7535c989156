"""The test app's content loader: counts its calls, as a real loader would count rows."""

calls: list[str] = []


def load_content() -> str:
    calls.append("load")
    return f"{len(calls)} call(s)"

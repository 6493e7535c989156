// Copy a share link to the clipboard and say so on the button for a moment. Where the
// clipboard API is refused (an insecure origin, an old browser) the text is selected and
// copied the old way.
export async function copyLink(input, button, copiedLabel) {
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand("copy");
  }
  const before = button.textContent;
  button.textContent = copiedLabel;
  setTimeout(() => (button.textContent = before), 1200);
}

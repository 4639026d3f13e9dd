// Slack reads `<`, `>` and `&` as control characters in message text (<@U123>, <!channel>, <url|label>), so they
// are escaped as Slack documents (&lt; &gt; &amp;): text arrives as written, and no <!channel> or <!here> can be
// formed to ping a whole channel. The message is also sent with mrkdwn off and parse "none", so *bold*,
// _italic_ and a bare @channel stay plain text.
export function escapeSlack(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

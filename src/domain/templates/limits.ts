// The interface caps template data and rendered output at 64 KiB each. Both are measured in UTF-8 bytes, the size
// they take on the wire and in the database, not in characters.
export const TEMPLATE_LIMIT_BYTES = 64 * 1024;

export const utf8Length = (text: string): number => Buffer.byteLength(text, "utf8");

// Byte sizes as the networks state them: some in binary units (MiB), some in decimal bytes. Keeping both
// spellings lets each rules file copy the documented figure instead of converting it by hand.
export const KiB = 1024;
export const MiB = 1024 * KiB;
export const GiB = 1024 * MiB;

export const JPEG = "image/jpeg";
export const PNG = "image/png";
export const GIF = "image/gif";
export const WEBP = "image/webp";
export const MP4 = "video/mp4";
export const QUICKTIME = "video/quicktime";

/** An all-zero post ID of a real one's length, so a preview measures exactly what the post will. */
export const PREVIEW_POST_ID = `post_${"0".repeat(26)}`;

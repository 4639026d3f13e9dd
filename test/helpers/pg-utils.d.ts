// pg's own value formatting (it ships no types for this module): what test/db/text-array.test.ts compares with.
declare module "pg/lib/utils.js" {
  const utils: { prepareValue(value: unknown): unknown };
  export default utils;
}

// The inputs of a CLI sign-in, apart from its use cases so that the route table can check them without loading
// those (docs/performance.md, "Start and idle memory").
import * as v from "valibot";
import { rule } from "../../validate.ts";

const deviceName = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, rule("device_name_invalid", "device_name must be 1 to 100 characters.")),
  v.maxLength(100, rule("device_name_invalid", "device_name must be 1 to 100 characters.")),
);
export const DeviceStart = v.strictObject({
  device_name: deviceName,
  livemode: v.optional(v.boolean()),
});
export const DeviceTokenRequest = v.strictObject({ device_code: v.pipe(v.string(), v.maxLength(200)) });

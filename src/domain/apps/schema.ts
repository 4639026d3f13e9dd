import * as v from "valibot";
import { name, rule } from "../validate.ts";

// A client ID or key as networks issue them: printable characters without spaces.
const clientId = v.pipe(
  v.string(),
  v.trim(),
  v.regex(
    /^[\x21-\x7e]{1,200}$/,
    rule("client_id_invalid", "The client ID must be 1 to 200 printable characters without spaces."),
  ),
);
const clientSecret = v.pipe(
  v.string(),
  v.trim(),
  v.regex(
    /^[\x21-\x7e]{1,500}$/,
    rule("client_secret_invalid", "The client secret must be 1 to 500 printable characters without spaces."),
  ),
);

export const AppCreate = v.strictObject({
  provider: v.string(),
  name: name("name_invalid", "Name"),
  client_id: clientId,
  client_secret: clientSecret,
});

export const AppRename = v.strictObject({
  name: name("name_invalid", "Name"),
});

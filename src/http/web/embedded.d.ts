// The dashboard's static files are imported `with { type: "file" }` (src/http/web/static.ts): Bun hands back the
// file's path (inside the executable when compiled), never the module.
declare module "*.css" {
  const path: string;
  export default path;
}
declare module "*.min.js" {
  const path: string;
  export default path;
}
declare module "*/views/static/app.js" {
  const path: string;
  export default path;
}
declare module "*/views/static/passkeys.js" {
  const path: string;
  export default path;
}
declare module "*/views/static/upload.js" {
  const path: string;
  export default path;
}
declare module "*/views/static/calendar.js" {
  const path: string;
  export default path;
}

// The catalogue of every error code svc answers with: its HTTP status (null where it varies or is not a whole
// answer's, such as a rule listed in a 422's `errors[]`) and what it means. It is the one source of the error
// codes page each install serves at /docs/errors (where every problem's `doc_url` points) and of the list in
// docs/api.md, and ErrorCode is its key: a ServiceError or problem with a code not listed here does not compile,
// so a new code cannot reach a client undocumented. A test keeps docs/api.md and this list equal and checks that
// every entry is still used somewhere in src/.

export interface ErrorCodeEntry {
  /** The group it is listed under, in the order of ERROR_GROUPS. */
  group: (typeof ERROR_GROUPS)[number];
  status: number | null;
  meaning: string;
}

export const ERROR_GROUPS = [
  "Authentication and limits",
  "Availability",
  "Requests",
  "Brands",
  "Posts and templates",
  "Media and channels",
  "Ads and analytics",
  "API keys",
  "Webhooks",
  "Newsletters",
  "Members, accounts and dashboard",
  "Operator",
  "CLI sign-in",
] as const;

const auth = "Authentication and limits";
const avail = "Availability";
const req = "Requests";
const brands = "Brands";
const posts = "Posts and templates";
const media = "Media and channels";
const insights = "Ads and analytics";
const keys = "API keys";
const hooks = "Webhooks";
const news = "Newsletters";
const people = "Members, accounts and dashboard";
const op = "Operator";
const cli = "CLI sign-in";

export const ERROR_CODES = {
  // Authentication and limits
  api_key_missing: { group: auth, status: 401, meaning: "No bearer credential was sent." },
  api_key_invalid: { group: auth, status: 401, meaning: "The key is malformed or unknown." },
  api_key_expired: { group: auth, status: 401, meaning: "The key was revoked or has expired." },
  user_token_invalid: {
    group: auth,
    status: 401,
    meaning: "The user token was revoked, went unused for a year, or is unknown.",
  },
  operator_key_invalid: { group: auth, status: 401, meaning: "The operator API needs a valid operator key." },
  operator_key_revoked: { group: auth, status: 401, meaning: "This operator key was revoked." },
  scope_missing: { group: auth, status: 403, meaning: "A restricted key lacks the scope this needs." },
  forbidden: { group: auth, status: 403, meaning: "The caller may not do this." },
  org_read_only: { group: auth, status: 403, meaning: "The operator made the org read-only." },
  org_suspended: {
    group: auth,
    status: 403,
    meaning: "The operator suspended the org; keys and tokens are refused.",
  },
  limit_reached: {
    group: auth,
    status: 403,
    meaning: "An org limit is reached; `param` is brands, channels, members or posts_per_month.",
  },
  sso_required: {
    group: auth,
    status: null,
    meaning:
      "The org requires single sign-on: a token, password sign-in or password reset that did not come through it is refused (403), and while it is required the provider and the last verified domain stay (409).",
  },
  org_required: { group: auth, status: 422, meaning: "A person in several orgs must name one in `Svc-Org`." },
  org_ambiguous: {
    group: auth,
    status: 422,
    meaning: "Several of the person's orgs have that name; name it by ID in `Svc-Org`.",
  },
  org_unknown: { group: auth, status: 404, meaning: "The person is not in the named org." },
  reauthentication_required: {
    group: auth,
    status: 403,
    meaning: "A recent password confirmation is needed.",
  },
  rate_limited: { group: auth, status: 429, meaning: "Slow down; see `Retry-After`." },

  // Availability
  database_unavailable: {
    group: avail,
    status: 503,
    meaning: "The database cannot be reached; retry after `Retry-After` seconds. Recovers by itself.",
  },
  keys_unavailable: {
    group: avail,
    status: 503,
    meaning: "No master key is configured, or the key service is unreachable.",
  },
  service_unavailable: {
    group: avail,
    status: 503,
    meaning: "The service cannot answer now (for example while the schema is migrated); retry.",
  },
  mail_unavailable: { group: avail, status: 503, meaning: "No email can be sent: SMTP is not configured." },
  media_storage_unavailable: {
    group: avail,
    status: 503,
    meaning:
      "The S3 bucket media are kept in cannot be reached; nothing was stored. Retry after `Retry-After` seconds; posts without media keep publishing.",
  },
  provider_unavailable: {
    group: avail,
    status: 503,
    meaning: "The network could not be reached to check the credentials; nothing was saved.",
  },
  internal_error: {
    group: avail,
    status: 500,
    meaning: "Something went wrong inside svc; the request ID finds it in the log.",
  },

  // Requests
  route_unknown: { group: req, status: 404, meaning: "No such route." },
  method_not_allowed: { group: req, status: 405, meaning: "The route takes other methods; see `Allow`." },
  json_invalid: { group: req, status: 400, meaning: "The body is not valid JSON." },
  parameter_unknown: {
    group: req,
    status: 400,
    meaning: "The body or query has fields the route does not take; every one is listed in `errors`.",
  },
  parameter_invalid: { group: req, status: 400, meaning: "A parameter has the wrong type or form." },
  parameter_missing: {
    group: req,
    status: 400,
    meaning: "A required parameter is missing; `param` names it.",
  },
  parameter_conflict: {
    group: req,
    status: 400,
    meaning: "Parameters that exclude each other were both given.",
  },
  body_too_large: { group: req, status: 400, meaning: "The body is over the size limit (1 MiB of JSON)." },
  body_unreadable: { group: req, status: 400, meaning: "The body could not be read whole." },
  resource_missing: { group: req, status: 404, meaning: "No such object in this org and mode." },
  idempotency_key_reused: {
    group: req,
    status: 409,
    meaning: "The same Idempotency-Key was used for a different request that succeeded.",
  },
  idempotency_key_in_use: {
    group: req,
    status: 409,
    meaning: "The first request with this Idempotency-Key is still running.",
  },
  idempotency_key_invalid: {
    group: req,
    status: 422,
    meaning: "The Idempotency-Key is over 255 characters.",
  },
  name_invalid: { group: req, status: 422, meaning: "The name is empty or over 100 characters." },
  query_too_long: { group: req, status: 422, meaning: "`q` is over 200 characters." },
  group_by_invalid: { group: req, status: 422, meaning: "`group_by` is not one this summary takes." },
  window_invalid: {
    group: req,
    status: 422,
    meaning: "`since` must precede `until`, at most a year apart.",
  },
  month_invalid: { group: req, status: 400, meaning: "`month` is not a YYYY-MM month." },
  share_link_invalid: {
    group: req,
    status: 404,
    meaning: "The report link was changed, withdrawn or has expired, or its org is suspended.",
  },
  cross_site_request: {
    group: req,
    status: 403,
    meaning: "A browser request came from another site; nothing changed.",
  },

  // Brands
  slug_invalid: {
    group: brands,
    status: 422,
    meaning: "The slug is not lower-case letters, digits and dashes.",
  },
  slug_taken: { group: brands, status: 409, meaning: "Another brand of the org has that slug." },
  timezone_invalid: { group: brands, status: 422, meaning: "Not an IANA time zone." },
  approval_policy_invalid: { group: brands, status: 422, meaning: "Not an approval policy." },
  utm_domain_invalid: { group: brands, status: 422, meaning: "A UTM domain is not a host name." },
  utm_domains_too_many: { group: brands, status: 422, meaning: "More than 20 UTM domains." },
  brand_has_channels: {
    group: brands,
    status: 409,
    meaning: "The brand still has channels (in either mode): disconnect them before deleting the brand.",
  },
  confirmation_mismatch: {
    group: brands,
    status: 422,
    meaning: "The name typed to confirm a deletion is not the name of what would be deleted.",
  },
  slot_invalid: { group: brands, status: 422, meaning: "A slot is not a weekday and an HH:MM time." },
  too_many_slots: { group: brands, status: 422, meaning: "More than 200 slots." },

  // Posts and templates
  publish_at_invalid: {
    group: posts,
    status: 422,
    meaning: "Not `now`, `next_slot` or RFC 3339; over a year ahead; or over 15 minutes past.",
  },
  publish_by_invalid: {
    group: posts,
    status: 422,
    meaning: "`publish_by` is not in the future or not after `publish_at`.",
  },
  too_long: {
    group: posts,
    status: 422,
    meaning: "Text exceeds a network's limit; `detail` has channel, part, measured length and limit.",
  },
  first_comment_unsupported: {
    group: posts,
    status: 422,
    meaning: "The network cannot take a first comment (a reply by the account itself) on the channel's post.",
  },
  threads_unsupported: {
    group: posts,
    status: 422,
    meaning: "Several parts for a network without threads; `detail` has parts_needed and parts_allowed (1).",
  },
  thread_too_long: {
    group: posts,
    status: 422,
    meaning:
      'The thread needs more parts than the network allows; `detail` has parts_needed and parts_allowed. Nothing is cut unless fit is "truncate".',
  },
  empty: { group: posts, status: 422, meaning: "The rendered text (or a part of it) is empty." },
  media_required: { group: posts, status: 422, meaning: "The network needs an image or a video." },
  too_much_media: {
    group: posts,
    status: 422,
    meaning: "More media than the network takes (a post takes at most ten).",
  },
  media_aspect_ratio: {
    group: posts,
    status: 422,
    meaning: "An image's aspect ratio is outside the network's.",
  },
  media_dimensions: {
    group: posts,
    status: 422,
    meaning: "An image is too big for the network and cannot be resized.",
  },
  media_missing: {
    group: posts,
    status: 422,
    meaning: "A listed medium does not exist in this org and mode.",
  },
  media_other_brand: { group: posts, status: 422, meaning: "A listed medium belongs to another brand." },
  media_duplicate: { group: posts, status: 422, meaning: "A medium is listed twice." },
  media_invalid: { group: posts, status: 422, meaning: "A listed medium is not a media ID." },
  variable_missing: {
    group: posts,
    status: 422,
    meaning: "The template uses a field its variables do not declare.",
  },
  variable_unguarded: {
    group: posts,
    status: 422,
    meaning: "The template prints an optional field without `{{if}}` or `{{with}}`.",
  },
  data_invalid: {
    group: posts,
    status: 422,
    meaning: "The data does not match the template's variables schema.",
  },
  data_too_large: { group: posts, status: 422, meaning: "The data is over 64 KiB." },
  output_too_large: { group: posts, status: 422, meaning: "The text (rendered or given) is over 64 KiB." },
  render_failed: { group: posts, status: 422, meaning: "The template could not be rendered with this data." },
  example_required: { group: posts, status: 422, meaning: "A template with variables needs an example." },
  template_syntax: { group: posts, status: 422, meaning: "The template text does not parse." },
  body_missing: { group: posts, status: 422, meaning: "The template has no body." },
  variables_invalid: { group: posts, status: 422, meaning: "The variables are not a usable JSON Schema." },
  example_invalid: { group: posts, status: 422, meaning: "An example does not match the variables schema." },
  template_missing: {
    group: posts,
    status: null,
    meaning: "No such template (key, key@N or ID): 422 in a post or preview, 404 from the get_template tool.",
  },
  template_invalid: {
    group: posts,
    status: 422,
    meaning: "The template reference is not a key, key@N or ID.",
  },
  key_invalid: {
    group: posts,
    status: 422,
    meaning: "The template key is not lower-case letters, digits, dashes.",
  },
  key_taken: { group: posts, status: 409, meaning: "The brand has a template with that key." },
  approval_invalid: { group: posts, status: 422, meaning: "Not inherit, required or not_required." },
  no_channels: { group: posts, status: 422, meaning: "The brand has no active channel in this mode." },
  channel_missing: {
    group: posts,
    status: 422,
    meaning: "A listed channel does not exist in this org and mode.",
  },
  channel_inactive: {
    group: posts,
    status: 422,
    meaning: "A listed channel is disabled or needs reconnecting.",
  },
  channel_other_brand: { group: posts, status: 422, meaning: "A listed channel belongs to another brand." },
  channel_invalid: { group: posts, status: 422, meaning: "A listed channel is not a channel ID." },
  no_slots: { group: posts, status: 422, meaning: "`next_slot` asked of a brand with no slots." },
  slots_full: { group: posts, status: 409, meaning: "Every slot in the next 56 days is taken." },
  no_slot_before_publish_by: {
    group: posts,
    status: 409,
    meaning: "No free slot comes before `publish_by`.",
  },
  slot_taken: { group: posts, status: 409, meaning: "Another post holds that slot; `detail.post` names it." },
  slot_contention: { group: posts, status: 409, meaning: "Other posts kept taking the free slot; retry." },
  post_not_movable: {
    group: posts,
    status: 409,
    meaning: "Only a scheduled or pending post with no attempts can be moved.",
  },
  post_unscheduled: { group: posts, status: 409, meaning: "A swap needs both posts to have a time." },
  post_not_published: { group: posts, status: 409, meaning: "Nothing of the post is published (to delete)." },
  post_not_editable: {
    group: posts,
    status: 409,
    meaning: "Only a draft, scheduled or pending post with no publish attempts can be edited.",
  },
  swap_other_brand: {
    group: posts,
    status: 422,
    meaning: "A swap needs both posts in the same brand and mode.",
  },
  reschedule_invalid: {
    group: posts,
    status: 422,
    meaning: "Give `publish_at` or `swap_with`, and no `publish_by` with a swap.",
  },
  post_not_cancelable: { group: posts, status: 409, meaning: "Nothing of the post is left to cancel." },
  post_not_pending: { group: posts, status: 409, meaning: "The post is not waiting for approval." },
  review_link_invalid: {
    group: posts,
    status: 404,
    meaning: "The client review link is unknown, was changed, withdrawn or has expired; ask for a new one.",
  },
  review_link_expiry_invalid: {
    group: posts,
    status: 422,
    meaning: "A review link's expires_at must be in the future and at most 30 days ahead.",
  },
  target_not_resolvable: {
    group: posts,
    status: 409,
    meaning: "Only a failed or needs_attention target can be retried or marked published.",
  },
  simulation_in_live_mode: {
    group: posts,
    status: 422,
    meaning: "`metadata.svc_simulate` is for test mode only.",
  },
  simulation_invalid: {
    group: posts,
    status: 422,
    meaning: "Not a simulation `metadata.svc_simulate` knows.",
  },
  content_missing: { group: posts, status: 422, meaning: "Give `template` or `content`." },
  content_conflict: { group: posts, status: 422, meaning: "Give `template` or `content`, not both." },
  content_empty: { group: posts, status: 422, meaning: "`content` has neither `body` nor `parts`." },
  fit_invalid: { group: posts, status: 422, meaning: "A fit is not error, truncate or thread." },
  metadata_invalid: {
    group: posts,
    status: 422,
    meaning: "Over 50 keys, a key not 1 to 40 characters, or a value over 500.",
  },
  video_alone: { group: posts, status: 422, meaning: "A video is the post's only medium." },
  video_unsupported: { group: posts, status: 422, meaning: "The network takes no video." },
  video_too_short: { group: posts, status: 422, meaning: "The video is shorter than the network takes." },
  video_too_long: { group: posts, status: 422, meaning: "The video is longer than the network takes." },
  video_frame_rate: { group: posts, status: 422, meaning: "The video's frame rate is over the network's." },
  video_codec_unsupported: {
    group: posts,
    status: 422,
    meaning: "The network does not take the video's codec.",
  },
  provider_unknown: {
    group: posts,
    status: 422,
    meaning: "An unknown network named in overrides, `fit` or preview.",
  },

  // Media and channels
  file_missing: { group: media, status: 400, meaning: "The multipart form has no `file`." },
  form_invalid: { group: media, status: 400, meaning: "The multipart form cannot be read." },
  media_empty: { group: media, status: 422, meaning: "The file or URL gave no bytes." },
  media_too_large: {
    group: media,
    status: 422,
    meaning:
      "The file is over the limit (16 MiB for an image, SVC_MAX_VIDEO_BYTES for a video) or the network's.",
  },
  media_type_unsupported: {
    group: media,
    status: 422,
    meaning: "The bytes are not JPEG, PNG, GIF, WebP, MP4 or QuickTime, or not a type the network takes.",
  },
  media_unreadable: {
    group: media,
    status: 422,
    meaning: "The file's bytes cannot be read as what they claim.",
  },
  media_in_use: { group: media, status: 409, meaning: "A post that is not finished lists this medium." },
  alt_too_long: { group: media, status: 422, meaning: "`alt` is over 1,000 characters." },
  url_invalid: {
    group: media,
    status: 422,
    meaning:
      "Not an absolute http(s) URL without credentials, or it is (or resolves to) a non-public address the install does not allow; the message names the setting.",
  },
  url_unreachable: { group: media, status: 422, meaning: "The URL could not be fetched." },
  video_needs_s3: { group: media, status: 422, meaning: "Video needs S3 storage (SVC_S3_BUCKET)." },
  provider_invalid: { group: media, status: 422, meaning: "No such provider, or not one this mode takes." },
  field_required: { group: media, status: 422, meaning: "The provider needs this connection field." },
  field_unknown: { group: media, status: 422, meaning: "The provider takes no such connection field." },
  field_invalid: {
    group: media,
    status: 422,
    meaning:
      "A connection field's value is not one the provider takes (YouTube's privacy: public, unlisted or private).",
  },
  connect_expired: {
    group: media,
    status: 422,
    meaning: "The sign-in is over 15 minutes old or was already used; start connecting again.",
  },
  connect_empty: {
    group: media,
    status: 422,
    meaning:
      "The network gave access to no account that can become a channel (no Page or board administered).",
  },
  choice_required: { group: media, status: null, meaning: "Pick at least one account to become a channel." },
  client_id_invalid: {
    group: media,
    status: null,
    meaning: "The developer app's client ID is empty or malformed.",
  },
  client_secret_invalid: {
    group: media,
    status: null,
    meaning: "The developer app's client secret is empty or malformed.",
  },
  name_taken: {
    group: media,
    status: null,
    meaning: "Another developer app of this org already has the name.",
  },
  connect_failed: {
    group: media,
    status: 422,
    meaning:
      "The network refused the credentials, or its server is at an address the install does not allow.",
  },
  needs_reauth: {
    group: media,
    status: 409,
    meaning: "The channel must be connected again (POST /v1/channels/{id}/reconnect) before it is enabled.",
  },
  credentials_unreadable: {
    group: media,
    status: 500,
    meaning: "The channel's stored credentials cannot be unsealed; connect it again.",
  },

  // Ads and analytics
  livemode_required: {
    group: insights,
    status: 422,
    meaning: "This ad network or analytics tool is real: connect it with a live key.",
  },
  testmode_required: {
    group: insights,
    status: 422,
    meaning: "The sandbox ad network and sandbox analytics take test keys only.",
  },
  network_unsupported: {
    group: insights,
    status: 422,
    meaning: "No such ad network (see GET /v1/ad_networks).",
  },
  provider_unsupported: {
    group: insights,
    status: 422,
    meaning:
      "No such analytics provider (see GET /v1/analytics_providers); on a target, the network cannot publish this.",
  },
  ad_account_connected: {
    group: insights,
    status: 409,
    meaning: "This ad account is already connected in this org and mode.",
  },
  analytics_source_connected: {
    group: insights,
    status: 409,
    meaning: "This site or property is already connected in this org and mode.",
  },
  goal_invalid: {
    group: insights,
    status: 422,
    meaning: "A goal name is empty, over 120 characters or repeated.",
  },
  goals_too_many: { group: insights, status: 422, meaning: "More than 20 goals on one analytics source." },

  // API keys
  scope_not_grantable: { group: keys, status: 422, meaning: "The scope cannot be given to a key." },
  scope_not_held: { group: keys, status: 422, meaning: "A key can grant only the scopes it holds." },
  scope_invalid: { group: keys, status: 422, meaning: "Not a scope." },
  brand_required: {
    group: keys,
    status: 422,
    meaning: "A brand-limited key can create only brand-limited keys.",
  },
  brand_invalid: { group: keys, status: 422, meaning: "Not a brand of this org." },
  livemode_mismatch: { group: keys, status: 422, meaning: "A key can create keys only in its own mode." },
  expires_too_late: { group: keys, status: 422, meaning: "A key cannot outlive the key that creates it." },
  key_inactive: { group: keys, status: 409, meaning: "The key is revoked or expired." },

  // Webhooks
  url_insecure: { group: hooks, status: 422, meaning: "Live mode endpoints must use https." },
  event_type_invalid: { group: hooks, status: 422, meaning: "Not an event type, or `*`." },
  description_invalid: { group: hooks, status: 422, meaning: "The description is over 500 characters." },

  // Members, accounts and dashboard
  role_invalid: { group: people, status: 422, meaning: "Not owner, admin, editor or viewer." },
  email_invalid: { group: people, status: 422, meaning: "Not an email address." },
  email_taken: { group: people, status: 409, meaning: "An account with that email exists." },
  member_exists: { group: people, status: 409, meaning: "That person is already a member." },
  last_owner: { group: people, status: 409, meaning: "An org keeps at least one owner." },
  recipient_exists: {
    group: people,
    status: 409,
    meaning: "That address already gets the brand's monthly report.",
  },
  recipients_limit: {
    group: people,
    status: 422,
    meaning: "The brand has 20 report recipients already.",
  },
  mfa_required_first: {
    group: people,
    status: 403,
    meaning: "Turn on two-factor sign-in for yourself before requiring it of the org.",
  },
  mfa_required: {
    group: people,
    status: 409,
    meaning: "An org you belong to requires two-factor sign-in: keep another way to sign in.",
  },
  invitation_invalid: {
    group: people,
    status: 404,
    meaning: "The invitation link is unknown, used or expired.",
  },
  notification_type_invalid: {
    group: people,
    status: 422,
    meaning: "Not a notification type (post.approval_requested, post.needs_attention, …).",
  },
  unsubscribe_link_invalid: {
    group: people,
    status: 404,
    meaning:
      "The unsubscribe link was changed, is for another person, org or type, was used already, or expired.",
  },
  reset_link_invalid: {
    group: people,
    status: 404,
    meaning: "The password reset link is unknown, used or expired.",
  },
  sign_in_failed: { group: people, status: 401, meaning: "The email or password is wrong." },
  password_wrong: { group: people, status: 401, meaning: "That password is wrong." },
  password_incorrect: { group: people, status: 422, meaning: "The current password is not right." },
  password_invalid: { group: people, status: 422, meaning: "A password needs 10 to 200 characters." },
  account_locked: {
    group: people,
    status: 429,
    meaning: "Too many wrong attempts; the account is locked for a while (see `Retry-After`).",
  },
  code_invalid: { group: people, status: null, meaning: "The two-factor code is not right." },
  passkey_name_invalid: {
    group: people,
    status: 422,
    meaning: "A passkey's name must be 1 to 100 characters.",
  },
  totp_enabled: { group: people, status: 409, meaning: "The authenticator app is already on." },
  passkey_invalid: { group: people, status: 401, meaning: "The passkey was not accepted." },
  csrf_invalid: {
    group: people,
    status: 403,
    meaning: "The form is out of date or from another session; reload and try again.",
  },
  issuer_invalid: {
    group: people,
    status: 422,
    meaning:
      "The issuer is not an https URL, or its discovery document names another issuer or lacks the endpoints sign-in needs.",
  },
  issuer_unreachable: {
    group: people,
    status: 422,
    meaning: "The issuer's discovery document (/.well-known/openid-configuration) could not be fetched.",
  },
  client_secret_required: { group: people, status: 422, meaning: "The client secret is needed." },
  default_role_invalid: {
    group: people,
    status: 422,
    meaning: "The default role of new single sign-on members is admin, editor or viewer (never owner).",
  },
  domain_invalid: { group: people, status: 422, meaning: "Not a domain name such as example.com." },
  domain_exists: { group: people, status: 409, meaning: "The org already has that domain." },
  domains_limit: { group: people, status: 422, meaning: "An org has at most 20 single sign-on domains." },
  domain_unverified: {
    group: people,
    status: 422,
    meaning: "The TXT record `_svc-verify.<domain>` does not hold `svc-verify=<token>` yet.",
  },
  domain_taken: { group: people, status: 409, meaning: "Another org has verified that domain." },
  sso_not_connected: {
    group: people,
    status: 409,
    meaning: "The org has no single sign-on provider connected.",
  },
  sso_no_domain: { group: people, status: 409, meaning: "The org has no verified single sign-on domain." },
  sso_session_required: {
    group: people,
    status: 403,
    meaning: "This needs a session that came through the org's single sign-on (sign in with it first).",
  },
  sso_unavailable: {
    group: people,
    status: 422,
    meaning: "No org has verified that email's domain for single sign-on.",
  },
  sso_session: {
    group: people,
    status: 403,
    meaning: "The org requires single sign-on: sign in through it to open the org.",
  },
  sso_expired: {
    group: people,
    status: 400,
    meaning: "The single sign-on attempt is unknown, used or older than 10 minutes; start again.",
  },
  sso_failed: {
    group: people,
    status: 400,
    meaning:
      "The provider's answer was not accepted (refused code, or an ID token with a wrong signature, issuer, audience, nonce or lifetime).",
  },
  sso_email_unverified: {
    group: people,
    status: 403,
    meaning: "The provider does not say the email address is verified.",
  },
  sso_email_missing: { group: people, status: 403, meaning: "The provider gave no email address." },
  sso_domain_mismatch: {
    group: people,
    status: 403,
    meaning: "The provider's email address is not in a verified domain of the org.",
  },
  sso_provider_unavailable: {
    group: people,
    status: 503,
    meaning: "The org's single sign-on provider could not be reached.",
  },

  // Operator
  external_ref_taken: { group: op, status: 409, meaning: "Another org has that external reference." },
  external_ref_invalid: { group: op, status: 422, meaning: "The external reference is over 200 characters." },
  limit_invalid: { group: op, status: 422, meaning: "A limit is 0 or more, or null." },
  status_invalid: { group: op, status: 422, meaning: "Not active, read_only or suspended." },
  status_note_invalid: { group: op, status: 422, meaning: "The status note is over 500 characters." },

  // CLI sign-in
  device_name_invalid: {
    group: cli,
    status: 422,
    meaning: "The device name is empty or over 100 characters.",
  },
  user_code_invalid: { group: cli, status: 422, meaning: "A code looks like XXXX-XXXX (letters only)." },
  authorization_pending: {
    group: cli,
    status: 400,
    meaning: "The sign-in is not approved yet; keep polling.",
  },
  slow_down: { group: cli, status: 400, meaning: "Polling too fast; wait 5 seconds longer between polls." },
  access_denied: { group: cli, status: 400, meaning: "The sign-in was denied in the dashboard." },
  expired_token: { group: cli, status: 400, meaning: "The device code expired (15 minutes); sign in again." },
  invalid_grant: { group: cli, status: 400, meaning: "The device code is unknown or was already used." },
  from_name_invalid: { group: news, status: 422, meaning: "`from_name` must be 1 to 100 characters." },
  from_email_invalid: { group: news, status: 422, meaning: "`from_email` is not an email address." },
  reply_to_invalid: { group: news, status: 422, meaning: "`reply_to` is not an email address." },
  mail_account_connected: {
    group: news,
    status: 409,
    meaning: "This provider account is already connected to the brand in this mode.",
  },
  mail_account_needs_reauth: {
    group: news,
    status: 422,
    meaning: "The provider refuses the account's credentials; update the mail account with new `fields`.",
  },
  audience_unknown: { group: news, status: 422, meaning: "The provider account has no such audience." },
  accent_invalid: {
    group: news,
    status: 422,
    meaning: 'The accent is not "#rrggbb" (or ""), or is too light to read on white (contrast under 4.5:1).',
  },
  postal_address_too_long: {
    group: news,
    status: 422,
    meaning: "The postal address is over 300 characters.",
  },
  footer_invalid: {
    group: news,
    status: 422,
    meaning: "The footer is more than one line or over 300 characters.",
  },
  logo_unknown: { group: news, status: 422, meaning: "The logo is not an image of this brand in this mode." },
  mail_account_in_use: {
    group: news,
    status: 409,
    meaning:
      "An issue that is not finished goes through this mail account; cancel it or take the account off first.",
  },
  mail_account_unknown: {
    group: news,
    status: 422,
    meaning: "No such mail account of the issue's brand in this mode.",
  },
  audience_missing: {
    group: news,
    status: 422,
    meaning: "A delivery names no audiences and its mail account has no default audiences.",
  },
  delivery_duplicate: { group: news, status: 422, meaning: "A mail account is listed in two deliveries." },
  subject_invalid: { group: news, status: 422, meaning: "`subject` must be 1 to 200 characters." },
  preview_text_too_long: { group: news, status: 422, meaning: "`preview_text` is over 200 characters." },
  body_invalid: {
    group: news,
    status: 422,
    meaning: "The body is empty, over 100,000 bytes, or names an image that is not the brand's.",
  },
  postal_address_missing: {
    group: news,
    status: 422,
    meaning: "Scheduling needs the brand's postal address in its email theme (mail law asks for it).",
  },
  deliveries_missing: { group: news, status: 422, meaning: "Scheduling needs at least one delivery." },
  send_at_invalid: {
    group: news,
    status: 422,
    meaning: "`send_at` must be an RFC 3339 time from 2 minutes to one year ahead.",
  },
  to_invalid: { group: news, status: 422, meaning: "`to` must list 1 to 5 email addresses." },
  issue_not_draft: { group: news, status: 409, meaning: "Only a draft issue can be changed." },
  issue_not_schedulable: {
    group: news,
    status: 409,
    meaning: "Only a draft or scheduled issue can be scheduled or moved.",
  },
  issue_not_scheduled: {
    group: news,
    status: 409,
    meaning: "Only a scheduled issue (or one waiting for approval) can return to draft.",
  },
  issue_not_cancelable: {
    group: news,
    status: 409,
    meaning: "The issue is sent, failed or canceled already.",
  },
  issue_not_pending: {
    group: news,
    status: 409,
    meaning: "Only an issue waiting for approval can be approved or rejected.",
  },
  issue_partly_sent: {
    group: news,
    status: 409,
    meaning:
      "Some deliveries are with their providers and others are not yet; wait for the hand-off to finish.",
  },
  handoff_in_progress: {
    group: news,
    status: 409,
    meaning: "The issue is being handed to its mail providers right now; try again in a minute.",
  },
} as const satisfies Record<string, ErrorCodeEntry>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CODES, code);
}

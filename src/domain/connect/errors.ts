// The Connecting errors of a sign-in (interface.md Errors, "Connecting, media, channels").
import { invalid, problem, ServiceError } from "../../lib/errors.ts";

export const connectExpired = () =>
  new ServiceError(
    422,
    "connect_expired",
    "This sign-in is over 15 minutes old or was already used. Start connecting again.",
  );

export const connectFailed = (why: string) =>
  new ServiceError(422, "connect_failed", `The network did not connect the account: ${why}`, {
    detail: { reason: why },
  });

export const connectEmpty = (network: string) =>
  new ServiceError(
    422,
    "connect_empty",
    `${network} gave access to no account that can become a channel (for Pages or boards: none is administered).`,
  );

export const choiceRequired = (message = "Pick at least one account to connect.") =>
  invalid([problem("choice_required", message, "accounts")]);

export const providerUnavailable = (message: string, retry = false) =>
  new ServiceError(
    retry ? 503 : 422,
    "provider_unavailable",
    message,
    retry ? { headers: { "Retry-After": "30" } } : {},
  );

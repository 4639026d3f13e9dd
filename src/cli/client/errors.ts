// The errors a client command can end with, apart from the code that raises them: src/cli/output.ts describes
// them for every command (and `svc all`), which then need not load the HTTP client or the prompts.

export interface Problem {
  code?: string;
  param?: string | null;
  message?: string;
  detail?: unknown;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly problems: Problem[],
    readonly body: unknown,
  ) {
    super(message);
  }
}

export class Cancelled extends Error {
  constructor() {
    super("cancelled");
  }
}

/**
 * Why a service could not answer; the server turns it into the HTTP status. `unavailable`: what
 * the service stands on (the task database) is not configured or does not answer.
 */
export type ServiceFailureKind = "not_found" | "invalid" | "conflict" | "failed" | "unavailable";

export interface ServiceError {
  kind: ServiceFailureKind;
  /** An `E_…` code: the catalog's where one fits. */
  code: string;
  message: string;
}

export type ServiceResult<T> = { ok: true; value: T } | { ok: false; error: ServiceError };

export function served<T>(value: T): ServiceResult<T> {
  return { ok: true, value };
}

export function serviceError<T = never>(
  kind: ServiceFailureKind,
  code: string,
  message: string,
): ServiceResult<T> {
  return { ok: false, error: { kind, code, message } };
}

// The fetch the `openai` client is given: httpFetch (Node's http client), except that a reply with an error
// status is read whole first and handed to the caller's ErrorCapture as it came (status, body
// text, headers), so the error reported is "<status> <response body>" with the server's own
// bytes and its retry-after headers, whatever the client makes of the body.
import { httpFetch, type HttpFetchInit } from "./http-fetch.js";

/** Where the status error of one request lands (passed per request in `fetchOptions`). */
export interface ErrorCapture {
  error?: HttpStatusError;
}

/** An error status from the server, shaped as the error describer reads it. */
export class HttpStatusError extends Error {
  constructor(
    readonly statusCode: number,
    readonly responseBody: string,
    readonly responseHeaders: Record<string, string>,
  ) {
    super(`${statusCode} ${responseBody}`);
    this.name = "HttpStatusError";
  }
}

export async function capturingFetch(input: string | URL | Request, init?: HttpFetchInit & { pithErrors?: ErrorCapture }): Promise<Response> {
  const capture = init?.pithErrors;
  const response = await httpFetch(input, init);
  if (response.ok || !capture) return response;
  const text = await response.text();
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  capture.error = new HttpStatusError(response.status, text, headers);
  return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
}

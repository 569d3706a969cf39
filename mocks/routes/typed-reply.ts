/**
 * The success answers an operation may give, derived from the generated contract types: a route
 * that returns a status or body the contract does not document fails to compile.
 */
type JsonBody<Response> = Response extends { content: { "application/json": infer Body } } ? Body : undefined;

type SuccessStatus = 200 | 201 | 202 | 204;

export type SuccessReply<Operation> = Operation extends { responses: infer Responses }
  ? {
      [Status in keyof Responses & SuccessStatus]: {
        status: Status;
        headers?: Record<string, string>;
        body: JsonBody<Responses[Status]>;
      };
    }[keyof Responses & SuccessStatus]
  : never;

import type { RequestHandler } from "express";
import { countingQueries, type QueryTally } from "~/db/query-count.server";
import { runBefore } from "./response-hooks";

export const QUERY_COUNT_HEADER = "X-Query-Count";

/**
 * Answers every request with the number of SQL queries made before its headers left (the loaders'
 * and the session's; a streamed body's later queries are not in it). For the benchmark only.
 */
export const queryCountHeader: RequestHandler = (_request, response, next) => {
  const tally: QueryTally = { count: 0 };
  runBefore(response, "writeHead", (res) => res.setHeader(QUERY_COUNT_HEADER, String(tally.count)));
  countingQueries(tally, next);
};

import type { RequestHandler } from "express";
import { CLIENT_ADDRESS_HEADER } from "~/lib/client-address.server";

/** Puts the address Express trusts (`req.ip`, which honours "trust proxy") in CLIENT_ADDRESS_HEADER. */
export const clientAddress: RequestHandler = (req, _res, next) => {
  delete req.headers[CLIENT_ADDRESS_HEADER];
  if (req.ip) req.headers[CLIENT_ADDRESS_HEADER] = req.ip;
  next();
};

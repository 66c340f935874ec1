/** A status change that a state machine (orders', memberships') does not allow. Nothing was changed. */
export class StatusTransitionError<Status extends string> extends Error {
  override name = "StatusTransitionError";
  constructor(
    readonly subject: string,
    readonly from: Status,
    readonly to: Status,
  ) {
    super(`${subject} cannot go from '${from}' to '${to}'.`);
  }
}

interface Waiting<Item, Result> {
  item: Item;
  resolve(result: Result): void;
  reject(error: unknown): void;
}

export interface StatementGroupOptions<Item, Result> {
  /** Runs one item in a statement of its own. */
  one(item: Item): Promise<Result>;
  /** Runs several items in one statement, and answers each, in their order. */
  many(items: Item[]): Promise<Result[]>;
  /** Whether `item` may go in one statement with `group` (no two of a statement may touch one row). */
  fits(item: Item, group: Item[]): boolean;
  /** The most items one statement takes. */
  maxItems: number;
}

/**
 * Group commit (ADR 021): an item is sent at once when no statement of this group is under way, and
 * the items that arrive meanwhile go together in the next one, each answered once that statement has
 * committed. An item that does not fit with the others (it would touch a row one of them touches)
 * waits for a later statement, in arrival order. When a statement of several fails, each of its
 * items runs again alone, so that only the item at fault fails.
 */
export class StatementGroup<Item, Result> {
  readonly #options: StatementGroupOptions<Item, Result>;
  #waiting: Array<Waiting<Item, Result>> = [];
  #sending = false;

  constructor(options: StatementGroupOptions<Item, Result>) {
    this.#options = options;
  }

  add(item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ item, resolve, reject });
      if (!this.#sending) void this.#sendWaiting();
    });
  }

  async #sendWaiting() {
    this.#sending = true;
    while (this.#waiting.length > 0) await this.#send(this.#nextGroup());
    this.#sending = false;
  }

  #nextGroup(): Array<Waiting<Item, Result>> {
    const group: Array<Waiting<Item, Result>> = [];
    const items: Item[] = [];
    const later: Array<Waiting<Item, Result>> = [];
    for (const waiting of this.#waiting) {
      if (group.length < this.#options.maxItems && this.#options.fits(waiting.item, items)) {
        group.push(waiting);
        items.push(waiting.item);
      } else later.push(waiting);
    }
    this.#waiting = later;
    return group;
  }

  async #send(group: Array<Waiting<Item, Result>>) {
    if (group.length > 1) {
      let results: Result[] | undefined;
      try {
        results = await this.#options.many(group.map((waiting) => waiting.item));
      } catch {
        // Nothing of it was stored: each item alone says whether it was the one at fault.
      }
      if (results) {
        group.forEach((waiting, index) => waiting.resolve(results[index]!));
        return;
      }
    }
    await Promise.all(
      group.map(async (waiting) => {
        try {
          waiting.resolve(await this.#options.one(waiting.item));
        } catch (error) {
          waiting.reject(error);
        }
      }),
    );
  }
}

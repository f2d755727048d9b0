/**
 * The one encoding of a task's failure (src/node/pool/task-failure.ts): what crosses between threads as
 * plain data comes back as an error of the class it was thrown with, and validate and diff keep
 * what they always made of a dataset failure.
 */
import { describe, expect, test } from "vitest";
import { DatasetError } from "../src/core/errors.js";
import { OperationalError } from "../src/node/errors.js";
import { decodeFailure, encodeFailure, isTaskFailure } from "../src/node/pool/task-failure.js";

/** Through a structured clone, as a worker thread's result crosses. */
const crossed = <T>(value: T): T => structuredClone(value);

describe("task failures", () => {
  test("a DatasetError comes back a DatasetError with its problems", () => {
    const error = decodeFailure(crossed(encodeFailure(new DatasetError(["a.md: one", "b.md: two"]))));
    expect(error).toBeInstanceOf(DatasetError);
    expect((error as DatasetError).problems).toEqual(["a.md: one", "b.md: two"]);
    expect((error as DatasetError).unreadable).toBe(false);
  });

  test("a DatasetError of a file that could not be read comes back saying so (update's exit 2 from a worker)", () => {
    const unreadable = new DatasetError(["cannot read laws/a.md: permission denied"], undefined, true);
    const error = decodeFailure(crossed(encodeFailure(unreadable)));
    expect(error).toBeInstanceOf(DatasetError);
    expect((error as DatasetError).unreadable).toBe(true);
  });

  test("an OperationalError comes back an OperationalError; anything else a plain Error with its message", () => {
    const operational = decodeFailure(crossed(encodeFailure(new OperationalError("cannot read x"))));
    expect(operational).toBeInstanceOf(OperationalError);
    expect(operational.message).toBe("cannot read x");
    const other = decodeFailure(crossed(encodeFailure(new TypeError("broken"))));
    expect(other).not.toBeInstanceOf(OperationalError);
    expect(other).not.toBeInstanceOf(DatasetError);
    expect(other.message).toBe("broken");
    expect(decodeFailure(encodeFailure("a string")).message).toBe("a string");
  });

  test("validate makes a dataset failure an OperationalError, diff a plain Error, both with its message", () => {
    const failure = encodeFailure(new DatasetError(["a.md: one", "b.md: two"]));
    const validate = decodeFailure(failure, { dataset: "operational" });
    expect(validate).toBeInstanceOf(OperationalError);
    expect(validate.message).toBe("a.md: one\nb.md: two");
    const diff = decodeFailure(failure, { dataset: "other" });
    expect(diff).not.toBeInstanceOf(OperationalError);
    expect(diff).not.toBeInstanceOf(DatasetError);
    expect(diff.message).toBe("a.md: one\nb.md: two");
  });

  test("a failure is told from a result", () => {
    expect(isTaskFailure(encodeFailure(new Error("x")))).toBe(true);
    expect(isTaskFailure([])).toBe(false);
    expect(isTaskFailure({ lines: [] })).toBe(false);
    expect(isTaskFailure(undefined)).toBe(false);
  });
});

/**
 * The one encoding of a task's failure (pool.ts): classes do not cross threads, so a task that fails
 * returns its error as plain data (`encodeFailure`), and the thread that sent the task makes the
 * error again (`decodeFailure`), of the same class: a DatasetError with its problems, an
 * OperationalError, else a plain Error with the message. The same pair is used when the task ran in
 * this thread, so that a run gives the same errors whatever its number of threads.
 */
import { DatasetError, errorMessage } from "../../core/errors.js";
import { OperationalError } from "../errors.js";

/** What a task returns when it fails: its error as plain data. */
export interface TaskFailure {
  failed: { kind: "dataset" | "operational" | "other"; message: string; problems?: string[]; unreadable?: true };
}

/** An error as plain data. */
export function encodeFailure(error: unknown): TaskFailure {
  if (error instanceof DatasetError)
    return {
      failed: {
        kind: "dataset",
        message: error.message,
        problems: error.problems,
        ...(error.unreadable ? { unreadable: true as const } : {}),
      },
    };
  if (error instanceof OperationalError) return { failed: { kind: "operational", message: error.message } };
  return { failed: { kind: "other", message: errorMessage(error) } };
}

/** True for a task's failure (a task's result is never an object with `failed` otherwise). */
export function isTaskFailure(result: unknown): result is TaskFailure {
  return typeof result === "object" && result !== null && "failed" in result;
}

/**
 * The error a failure stands for, of the class it was thrown with. `dataset` keeps what two commands have always made
 * of a dataset failure of a task: validate an OperationalError (exit 2, its message), diff a plain Error (exit 2, its
 * message), where update and generate give the DatasetError (exit 1, its problems listed).
 */
export function decodeFailure(failure: TaskFailure, { dataset }: { dataset?: "operational" | "other" } = {}): Error {
  const { message, problems, unreadable } = failure.failed;
  const kind = failure.failed.kind === "dataset" ? (dataset ?? "dataset") : failure.failed.kind;
  if (kind === "dataset") return new DatasetError(problems ?? [message], undefined, unreadable === true);
  if (kind === "operational") return new OperationalError(message);
  return new Error(message);
}

/**
 * One JSON object per line, so CloudWatch Logs Insights can filter on `step`. Callers pass only values they
 * chose to log; nothing here ever receives the token, the Authorization header, credentials or the CA.
 */

export type LogValue = string | number | boolean | null | readonly string[];

export interface LogEntry {
  readonly level: "info" | "warn" | "error";
  readonly step: string;
  readonly message: string;
  readonly [field: string]: LogValue | undefined;
}

export type Logger = (entry: LogEntry) => void;

export const consoleJsonLogger: Logger = (entry) => console.log(JSON.stringify(entry));

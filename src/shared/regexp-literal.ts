/** The text as a regular expression that matches it alone: JavaScript's and RE2's (Go, Prometheus) alike. */
export const regExpLiteral = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

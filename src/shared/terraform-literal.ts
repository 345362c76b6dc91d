// Terraform reads every string of its JSON configuration as a template: `${...}` is an expression and `%{...}`
// a directive, so a value a user wrote (a shell variable in userData, an ARN with `${file(...)}` in it) would
// be evaluated at plan time. Text must reach Terraform with `$${` and `%%{`, which Terraform reads back as the
// literal `${` and `%{`.
// @see https://developer.hashicorp.com/terraform/language/syntax/json#expression-mapping
// @see https://developer.hashicorp.com/terraform/language/expressions/strings#escape-sequences
//
// cdktf cannot be handed the escaped text: its resolver reads `${` in a literal as a raw expression, and turns
// `$${` back into `${`. So text is escaped in two steps around cdktf's resolution: before it, the `${` and `%{`
// of literal text become markers cdktf leaves alone; after it, the markers become Terraform's escapes. The
// tokens cdktf itself resolves to expressions (`${aws_vpc.this.id}`) are never touched.

/** cdktf's stringified tokens: `${TfToken[TOKEN.12]}`, and the list and map forms (cdktf tokens/private/encoding.ts). */
const CDKTF_TOKEN = /([$#&]\{TfToken\[[a-zA-Z0-9:._-]+\]\})/;

/** Private-use characters around a word: nothing a config holds survives validation with them by chance. */
const DOLLAR_MARKER = "\uE000aeks-literal-dollar-brace\uE001";
const PERCENT_MARKER = "\uE000aeks-literal-percent-brace\uE001";

/** Literal `${` and `%{` outside cdktf's tokens, hidden from cdktf's resolver. */
function hideInText(text: string): string {
  if (!text.includes("{")) return text;
  return text
    .split(CDKTF_TOKEN)
    .map((part, i) => (i % 2 === 1 ? part : part.replaceAll("${", DOLLAR_MARKER).replaceAll("%{", PERCENT_MARKER)))
    .join("");
}

/**
 * The same value with the template openings of its literal text hidden: strings, the keys and values of plain
 * objects, and list items. Anything else (a token object, a number) is left as it is.
 */
export function hideTemplateOpenings<T>(value: T): T {
  return hide(value) as T;
}

function hide(value: unknown): unknown {
  if (typeof value === "string") return hideInText(value);
  if (Array.isArray(value)) return value.map(hide);
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [hideInText(key), hide(item)]));
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** The hidden openings of resolved output as Terraform's escapes, `$${` and `%%{`. */
export function escapeHiddenOpenings<T>(value: T): T {
  return reveal(value) as T;
}

function revealInText(text: string): string {
  return text.includes("\uE000") ? text.replaceAll(DOLLAR_MARKER, () => "$${").replaceAll(PERCENT_MARKER, () => "%%{") : text;
}

function reveal(value: unknown): unknown {
  if (typeof value === "string") return revealInText(value);
  if (Array.isArray(value)) return value.map(reveal);
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [revealInText(key), reveal(item)]));
  return value;
}

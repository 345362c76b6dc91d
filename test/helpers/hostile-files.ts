/** An alias bomb ("billion laughs"): each level names the one above nine times, 9^6 strings in all. */
export const ALIAS_BOMB = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...["b", "c", "d", "e", "f"].map((level, i) => `${level}: &${level} [${Array(9).fill(`*${"abcde"[i]}`).join(",")}]`),
  "",
].join("\n");

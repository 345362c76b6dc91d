// A count with its noun, singular for one: "1 pod", "3 pods". English plurals in "s" only, which is every noun
// the project counts in its messages.

export const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? "" : "s"}`;

import { eachListItem } from "../../src/cluster-state/json-list-items";

// A List's items read one at a time from its bytes: each item as JSON.parse reads it, with the fields the object
// has before and after `items`; anything else is left to the whole-text readers (undefined).

const bytesOf = (text: string) => Buffer.from(text, "utf8");

function read(text: string) {
  const items: { item: unknown; index: number; before: Record<string, unknown> }[] = [];
  const rest = eachListItem(bytesOf(text), (item, index, before) => items.push({ item, index, before: { ...before } }));
  return { rest, items };
}

describe("eachListItem", () => {
  it("hands over each item as JSON.parse reads it, with what kubectl writes around them (keys sorted: kind after items)", () => {
    const list = {
      apiVersion: "v1",
      items: [
        { kind: "Node", metadata: { name: "n1", labels: { "a/b": 'x"y}]' } } },
        { kind: "Pod", spec: { nodeName: "n1", n: [1, 2.5e3, null, true] } },
      ],
      kind: "List",
      metadata: { resourceVersion: "" },
    };
    for (const text of [JSON.stringify(list), `${JSON.stringify(list, null, 4)}\n`]) {
      const { rest, items } = read(text);
      expect(items.map((i) => i.item)).toEqual(list.items);
      expect(items.map((i) => i.index)).toEqual([0, 1]);
      expect(rest).toEqual({ apiVersion: "v1", kind: "List", metadata: { resourceVersion: "" } });
    }
  });

  it("tells each item the fields read before it: an API server writes a typed list's kind first", () => {
    const { items } = read('{"kind":"PodList","apiVersion":"v1","metadata":{},"items":[{"metadata":{"name":"p"}}]}');
    expect(items[0].before).toEqual({ kind: "PodList", apiVersion: "v1", metadata: {} });
  });

  it("reads UTF-8 inside items, and an empty list", () => {
    expect(read('{"items":[{"metadata":{"name":"café ☕"}}]}').items[0].item).toEqual({ metadata: { name: "café ☕" } });
    expect(read('{"items": [ ], "kind": "List"}')).toEqual({ rest: { kind: "List" }, items: [] });
  });

  it("leaves what is not one object with an items array to the whole-text readers", () => {
    expect(read('{"kind":"AutonomousEksSavingsSnapshot","objects":{}}').rest).toBeUndefined();
    expect(read('{"items":[{"a":1}]}\n{"items":[]}').rest).toBeUndefined();
    expect(read("apiVersion: v1\nkind: List\nitems: []\n").rest).toBeUndefined();
    expect(read('{"items":[{"a":1},{"b":]}').rest).toBeUndefined();
    expect(read('{"items":[{"a":1}').rest).toBeUndefined();
    expect(eachListItem(Buffer.concat([bytesOf('{"items":[{"name":"'), Buffer.from([0xe9]), bytesOf('"}]}')]), () => {})).toBeUndefined();
  });
});

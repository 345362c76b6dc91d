import { clusterModelFromDocument } from "../../src/planner/cluster-model";

// The node class model's ephemeral storage, from the EC2NodeClasses synth renders, as Karpenter's AWS provider
// derives it (types.go ephemeralStorage): the rootVolume mapping's size, else the AMI family's data device's,
// else 20Gi. plan and savings read it from the same model.

const GI = 2 ** 30;
/** A config with these node classes, each used by a pool of its name. */
const storage = (nodeClasses: readonly ({ readonly name: string } & Record<string, unknown>)[]) => {
  const model = clusterModelFromDocument({ name: "demo", nodeClasses, nodePools: nodeClasses.map((c) => ({ name: c.name, nodeClass: c.name })) }, "test");
  return new Map(model.pools.map((p) => [p.nodeClass.name, p.nodeClass.ephemeralStorageBytes]));
};

describe("ephemeral storage by node class", () => {
  it("the project's default root volume (50Gi), and rootVolumeSize", () => {
    expect(storage([{ name: "default" }, { name: "big", rootVolumeSize: "200Gi" }])).toEqual(
      new Map([
        ["default", 50 * GI],
        ["big", 200 * GI],
      ]),
    );
  });

  it("Bottlerocket keeps kubelet's data on its second volume, /dev/xvdb, which its default layout marks as the root volume", () => {
    expect(storage([{ name: "br", amiAlias: "bottlerocket@latest", rootVolumeSize: "80Gi" }])).toEqual(new Map([["br", 80 * GI]]));
  });

  it("blockDeviceMappings: the one marked rootVolume, else the family's data device, else Karpenter's 20Gi", () => {
    const volume = (deviceName: string, volumeSize: string, rootVolume?: boolean) => ({
      deviceName,
      ebs: { volumeSize },
      ...(rootVolume ? { rootVolume } : {}),
    });
    expect(
      storage([
        { name: "marked", blockDeviceMappings: [volume("/dev/xvda", "30Gi"), volume("/dev/xvdc", "300Gi", true)] },
        { name: "by-device", blockDeviceMappings: [volume("/dev/xvda", "120Gi")] },
        { name: "neither", blockDeviceMappings: [volume("/dev/xvdc", "500Gi")] },
      ]),
    ).toEqual(
      new Map([
        ["marked", 300 * GI],
        ["by-device", 120 * GI],
        ["neither", 20 * GI],
      ]),
    );
  });
});

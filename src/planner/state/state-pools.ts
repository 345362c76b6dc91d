import type { EC2NodeClass, NodePool } from "../../provisioners/karpenter-api";
import { LABEL } from "../../shared/vocabulary/well-known-labels";
import type { NodeClassModel, PoolModel } from "../model";
import { DEFAULT_EBS_BYTES, nodeClassModel, poolModelOf } from "../node-pool-model";
import { isRecord, type Raw } from "../workload/raw-object";

// A running cluster's NodePools and EC2NodeClasses (Karpenter 1.x, karpenter.sh/v1 and karpenter.k8s.aws/v1), read
// as the planner reads those synth renders. A pool whose node class is not in the state is planned as AL2023 with
// the default kubelet, and the state says so. A NodePool without a capacity-type requirement launches on-demand
// nodes (Karpenter's documented default), and is planned so.

/** Karpenter's documented default capacity type for a NodePool that names none. */
const DEFAULT_CAPACITY_TYPE = "on-demand";

const DEFAULT_NODE_CLASS = (name: string): NodeClassModel => ({
  name,
  amiFamily: "AL2023",
  os: "linux",
  kubelet: {},
  ephemeralStorageBytes: DEFAULT_EBS_BYTES,
});

const nameOf = (object: Raw) => (isRecord(object.metadata) && typeof object.metadata.name === "string" ? object.metadata.name : "");

/** What is wrong with a NodePool object for the planner, or undefined. */
function nodePoolProblem(object: Raw): string | undefined {
  if (object.apiVersion !== undefined && object.apiVersion !== "karpenter.sh/v1") {
    return `is ${String(object.apiVersion)}; the simulation reads Karpenter 1.x NodePools (karpenter.sh/v1): upgrade Karpenter from 0.x first`;
  }
  const spec = isRecord(object.spec) ? object.spec : undefined;
  const template = spec !== undefined && isRecord(spec.template) && isRecord(spec.template.spec) ? spec.template.spec : undefined;
  if (template === undefined || !Array.isArray(template.requirements)) return "spec.template.spec.requirements: missing; a NodePool lists its requirements";
  if (!template.requirements.every((r) => isRecord(r) && typeof r.key === "string" && typeof r.operator === "string")) {
    return "spec.template.spec.requirements: each requirement needs a key and an operator";
  }
  return undefined;
}

export interface StatePools {
  readonly pools: readonly PoolModel[];
  readonly warnings: readonly string[];
}

export function statePools(nodePools: readonly Raw[], nodeClasses: readonly Raw[], problems: string[]): StatePools {
  const warnings: string[] = [];
  const classes = new Map(nodeClasses.map((c) => [nameOf(c), c]));
  const pools: PoolModel[] = [];
  for (const raw of nodePools) {
    const name = nameOf(raw);
    const problem = nodePoolProblem(raw);
    if (problem !== undefined) {
      problems.push(`NodePool ${name}: ${problem}`);
      continue;
    }
    const object = raw as unknown as NodePool;
    const spec = object.spec;
    const requirements = spec.template.spec.requirements;
    const withDefaults: NodePool = {
      ...object,
      spec: {
        ...spec,
        template: {
          ...spec.template,
          spec: {
            ...spec.template.spec,
            requirements: requirements.some((r) => r.key === LABEL.capacityType)
              ? requirements
              : [...requirements, { key: LABEL.capacityType, operator: "In", values: [DEFAULT_CAPACITY_TYPE] }],
          },
        },
      },
    };
    const className = spec.template.spec.nodeClassRef?.name ?? "";
    const nodeClass = classes.get(className);
    if (nodeClass === undefined)
      warnings.push(`NodePool ${name}: its EC2NodeClass ${className} is not in the state; its nodes are planned as AL2023 with the default kubelet`);
    const classSpec = nodeClass !== undefined && isRecord(nodeClass.spec) ? nodeClass.spec : undefined;
    const classModel =
      classSpec === undefined
        ? DEFAULT_NODE_CLASS(className)
        : nodeClassModel({
            ...nodeClass,
            spec: { ...classSpec, amiSelectorTerms: Array.isArray(classSpec.amiSelectorTerms) ? classSpec.amiSelectorTerms : [] },
          } as unknown as EC2NodeClass);
    pools.push(poolModelOf(withDefaults, classModel));
  }
  return { pools, warnings };
}

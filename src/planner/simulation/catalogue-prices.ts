import type { InstanceCatalogue } from "../../instance-catalogue/instance-catalogue";
import type { Prices } from "./pool-offerings";

/** The prices a catalogue carries: on-demand always, spot only when it came from --live. */
export function pricesOf(catalogue: InstanceCatalogue): Prices {
  const spot = catalogue.spot;
  return {
    spotKnown: spot !== undefined,
    onDemand: (type) => type.onDemandUsd,
    spot: (type) => spot?.usd[type.name],
  };
}

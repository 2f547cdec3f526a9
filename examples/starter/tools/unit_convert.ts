// Converts a value between units of length, mass, volume, time, data size
// and temperature, offline.

import type { Tool } from "@beeuni/tools";

interface Args {
  value: number;
  from: string;
  to: string;
}

/** Units per dimension, as a factor to the dimension's base unit. */
const FACTORS: Record<string, Record<string, number>> = {
  length: {
    mm: 0.001,
    cm: 0.01,
    m: 1,
    km: 1000,
    in: 0.0254,
    ft: 0.3048,
    yd: 0.9144,
    mi: 1609.344,
    nmi: 1852,
  },
  mass: {
    mg: 1e-6,
    g: 0.001,
    kg: 1,
    t: 1000,
    oz: 0.028349523125,
    lb: 0.45359237,
    st: 6.35029318,
  },
  volume: {
    ml: 0.001,
    cl: 0.01,
    l: 1,
    m3: 1000,
    tsp: 0.00492892159375,
    tbsp: 0.01478676478125,
    cup: 0.2365882365,
    floz: 0.0295735295625,
    pt: 0.473176473,
    qt: 0.946352946,
    gal: 3.785411784,
  },
  time: { ms: 0.001, s: 1, min: 60, h: 3600, d: 86400, wk: 604800 },
  data: {
    b: 1,
    kb: 1e3,
    mb: 1e6,
    gb: 1e9,
    tb: 1e12,
    kib: 1024,
    mib: 1024 ** 2,
    gib: 1024 ** 3,
    tib: 1024 ** 4,
  },
};

const TEMPERATURES = ["c", "f", "k"];

function toKelvin(value: number, unit: string): number {
  if (unit === "c") return value + 273.15;
  if (unit === "f") return (value - 32) * 5 / 9 + 273.15;
  return value;
}

function fromKelvin(value: number, unit: string): number {
  if (unit === "c") return value - 273.15;
  if (unit === "f") return (value - 273.15) * 9 / 5 + 32;
  return value;
}

function dimensionOf(unit: string): string | undefined {
  if (TEMPERATURES.includes(unit)) return "temperature";
  return Object.keys(FACTORS).find((dimension) => unit in FACTORS[dimension]);
}

function round(value: number): number {
  return Number(value.toPrecision(12));
}

export default {
  description:
    "Convert a value between units of length, mass, volume, time, data size or temperature (e.g. 5 mi to km, 70 f to c, 2 gib to mb).",
  parameters: {
    type: "object",
    properties: {
      value: { type: "number", description: "The value to convert" },
      from: {
        type: "string",
        description: 'The unit of value, e.g. "mi", "kg", "c", "gib"',
      },
      to: { type: "string", description: 'The unit to convert to, e.g. "km"' },
    },
    required: ["value", "from", "to"],
  },
  execute(args: Args) {
    const from = String(args.from).trim().toLowerCase();
    const to = String(args.to).trim().toLowerCase();
    if (typeof args.value !== "number" || !Number.isFinite(args.value)) {
      throw new Error(
        `value must be a finite number, got ${JSON.stringify(args.value)}`,
      );
    }
    const known = [
      ...TEMPERATURES,
      ...Object.values(FACTORS).flatMap(Object.keys),
    ];
    for (const unit of [from, to]) {
      if (!dimensionOf(unit)) {
        throw new Error(
          `unknown unit "${unit}": use one of ${known.join(", ")}`,
        );
      }
    }
    const dimension = dimensionOf(from)!;
    if (dimensionOf(to) !== dimension) {
      throw new Error(
        `cannot convert "${from}" (${dimension}) to "${to}" (${
          dimensionOf(to)
        })`,
      );
    }
    const result = dimension === "temperature"
      ? fromKelvin(toKelvin(args.value, from), to)
      : args.value * FACTORS[dimension][from] / FACTORS[dimension][to];
    return { value: args.value, from, to, result: round(result), dimension };
  },
} satisfies Tool;

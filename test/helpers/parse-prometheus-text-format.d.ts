// parse-prometheus-text-format ships no types: it parses the Prometheus exposition format into metric families.
declare module "parse-prometheus-text-format" {
  interface Sample {
    labels?: Record<string, string>;
    value?: string;
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  export default function parse(
    text: string,
  ): { name: string; help: string; type: string; metrics: Sample[] }[];
}

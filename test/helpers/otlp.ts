// A local OTLP/HTTP receiver's decoder for the spans svc exports with the default protocol (http/protobuf): the
// messages of opentelemetry-proto's trace service (collector/trace/v1, trace/v1, common/v1, resource/v1) that a
// test reads, with their field numbers as the proto files define them, decoded by protobufjs. Fields a test does
// not read are skipped by the decoder, as protobuf allows.
import protobuf from "protobufjs";

const root = protobuf.Root.fromJSON({
  nested: {
    otlp: {
      nested: {
        AnyValue: {
          oneofs: { value: { oneof: ["stringValue", "boolValue", "intValue", "doubleValue"] } },
          fields: {
            stringValue: { type: "string", id: 1 },
            boolValue: { type: "bool", id: 2 },
            intValue: { type: "int64", id: 3 },
            doubleValue: { type: "double", id: 4 },
          },
        },
        KeyValue: { fields: { key: { type: "string", id: 1 }, value: { type: "AnyValue", id: 2 } } },
        Resource: { fields: { attributes: { rule: "repeated", type: "KeyValue", id: 1 } } },
        InstrumentationScope: {
          fields: { name: { type: "string", id: 1 }, version: { type: "string", id: 2 } },
        },
        Span: {
          fields: {
            traceId: { type: "bytes", id: 1 },
            spanId: { type: "bytes", id: 2 },
            parentSpanId: { type: "bytes", id: 4 },
            name: { type: "string", id: 5 },
            kind: { type: "int32", id: 6 },
            startTimeUnixNano: { type: "fixed64", id: 7 },
            endTimeUnixNano: { type: "fixed64", id: 8 },
            attributes: { rule: "repeated", type: "KeyValue", id: 9 },
          },
        },
        ScopeSpans: {
          fields: {
            scope: { type: "InstrumentationScope", id: 1 },
            spans: { rule: "repeated", type: "Span", id: 2 },
          },
        },
        ResourceSpans: {
          fields: {
            resource: { type: "Resource", id: 1 },
            scopeSpans: { rule: "repeated", type: "ScopeSpans", id: 2 },
          },
        },
        ExportTraceServiceRequest: {
          fields: { resourceSpans: { rule: "repeated", type: "ResourceSpans", id: 1 } },
        },
      },
    },
  },
});
const Request = root.lookupType("otlp.ExportTraceServiceRequest");

export interface DecodedSpan {
  name: string;
  traceId: string;
  spanId: string;
  attributes: Record<string, string | number | boolean>;
  resource: Record<string, string | number | boolean>;
}

const flat = (kvs: { key: string; value: Record<string, unknown> }[] = []) =>
  Object.fromEntries(
    kvs.map((kv) => [kv.key, Object.values(kv.value ?? {})[0] as string | number | boolean]),
  );

/** The spans of one ExportTraceServiceRequest body. */
export function decodeSpans(body: Uint8Array): DecodedSpan[] {
  const msg = Request.toObject(Request.decode(body), { longs: Number, bytes: String, defaults: false }) as {
    resourceSpans?: {
      resource?: { attributes?: { key: string; value: Record<string, unknown> }[] };
      scopeSpans?: { spans?: { name: string; traceId: string; spanId: string; attributes?: never[] }[] }[];
    }[];
  };
  const out: DecodedSpan[] = [];
  for (const rs of msg.resourceSpans ?? []) {
    const resource = flat(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? [])
      for (const s of ss.spans ?? [])
        out.push({
          name: s.name,
          traceId: Buffer.from(s.traceId, "base64").toString("hex"),
          spanId: Buffer.from(s.spanId, "base64").toString("hex"),
          attributes: flat(s.attributes),
          resource,
        });
  }
  return out;
}

// The tree a template body parses into. Check and render both walk it, so positions stay on every node that can
// fail later: a problem found at check or render time still points at the line and column the author wrote.

/** 1-based line and column (in code points) of the `{{` that opened an action. */
export interface Position {
  line: number;
  column: number;
}

/**
 * A field reference: `.` is `[]`, `.a.b` is `["a", "b"]`. Segments are relative to the dot, which is the data at
 * the top level and the value of the enclosing `{{with}}` inside one.
 */
export type FieldPath = readonly string[];

export interface TextNode {
  kind: "text";
  text: string;
}

export interface PrintNode {
  kind: "print";
  path: FieldPath;
  at: Position;
}

export interface IfNode {
  kind: "if";
  path: FieldPath;
  at: Position;
  ifTrue: Node[];
  ifFalse: Node[];
}

/** Like `if`, and inside `ifTrue` the dot becomes the tested value. `ifFalse` keeps the outer dot. */
export interface WithNode {
  kind: "with";
  path: FieldPath;
  at: Position;
  ifTrue: Node[];
  ifFalse: Node[];
}

/** A line holding only `{{thread}}`: the text after it starts a new thread part. */
export interface ThreadNode {
  kind: "thread";
  at: Position;
}

export type Node = TextNode | PrintNode | IfNode | WithNode | ThreadNode;

export interface Template {
  nodes: Node[];
}

/** How a path reads in messages: the way the author would write it. */
export const showPath = (path: FieldPath): string => (path.length === 0 ? "." : `.${path.join(".")}`);

/** The condition language's syntax tree. Offsets are into the condition's value (not the YAML source). */

export interface Loc {
  readonly start: number;
  readonly end: number;
}

export type Literal = string | number | boolean | null | Literal[];

export type Expr =
  | { readonly kind: 'or' | 'and'; readonly left: Expr; readonly right: Expr; readonly loc: Loc }
  | { readonly kind: 'not'; readonly operand: Expr; readonly loc: Loc }
  | { readonly kind: 'compare'; readonly op: CompareOp; readonly left: Operand; readonly right: Operand; readonly loc: Loc }
  | Operand;

export type Operand =
  | {
      readonly kind: 'path';
      readonly segments: readonly (string | number)[];
      readonly text: string;
      readonly loc: Loc;
      readonly rootLoc: Loc;
    }
  | { readonly kind: 'literal'; readonly value: Literal; readonly loc: Loc };

export type CompareOp = '==' | '!=' | '>' | '>=' | '<' | '<=' | 'contains' | 'startswith' | 'endswith' | 'in';

export const ROOTS = ['response.status', 'response.body', 'response.headers', 'params'] as const;

export interface ConditionError {
  readonly message: string;
  readonly start: number;
  readonly end: number;
}

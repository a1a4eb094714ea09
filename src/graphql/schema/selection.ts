import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/** Whether a field named `name` is selected right below the current field (through fragments) with @stream. */
export function streams(info: GraphQLResolveInfo, name: string): boolean {
  const seen = new Set<string>();
  const search = (selectionSet: SelectionSetNode | undefined): boolean =>
    !!selectionSet?.selections.some((selection) => {
      if (selection.kind === Kind.FIELD) {
        return selection.name.value === name && !!selection.directives?.some((directive) => directive.name.value === 'stream');
      }
      if (selection.kind === Kind.INLINE_FRAGMENT) return search(selection.selectionSet);
      if (seen.has(selection.name.value)) return false;
      seen.add(selection.name.value);
      return search(info.fragments[selection.name.value]?.selectionSet);
    });
  return info.fieldNodes.some((node) => search(node.selectionSet));
}

/** Whether a field named `name` is selected anywhere below the current field, through fragments. */
export function selects(info: GraphQLResolveInfo, name: string): boolean {
  const seen = new Set<string>();
  const search = (selectionSet: SelectionSetNode | undefined): boolean =>
    !!selectionSet?.selections.some((selection) => {
      if (selection.kind === Kind.FIELD) return selection.name.value === name || search(selection.selectionSet);
      if (selection.kind === Kind.INLINE_FRAGMENT) return search(selection.selectionSet);
      if (seen.has(selection.name.value)) return false;
      seen.add(selection.name.value);
      return search(info.fragments[selection.name.value]?.selectionSet);
    });
  return info.fieldNodes.some((node) => search(node.selectionSet));
}

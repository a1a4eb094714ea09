import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/** Whether a field named `name` is selected right below the current field (through fragments) with @stream. */
export function streams(info: GraphQLResolveInfo, name: string): boolean {
  return findField(info, (field) => field.name.value === name && !!field.directives?.some((d) => d.name.value === 'stream'), false);
}

/** Whether a field named `name` is selected anywhere below the current field, through fragments. */
export function selects(info: GraphQLResolveInfo, name: string): boolean {
  return findField(info, (field) => field.name.value === name, true);
}

/** Whether a field below the current one passes `test`: right below it (through fragments), or at any depth when `deep`. */
function findField(info: GraphQLResolveInfo, test: (field: FieldNode) => boolean, deep: boolean): boolean {
  const seen = new Set<string>();
  const search = (selectionSet: SelectionSetNode | undefined): boolean =>
    !!selectionSet?.selections.some((selection) => {
      if (selection.kind === Kind.FIELD) return test(selection) || (deep && search(selection.selectionSet));
      if (selection.kind === Kind.INLINE_FRAGMENT) return search(selection.selectionSet);
      if (seen.has(selection.name.value)) return false;
      seen.add(selection.name.value);
      return search(info.fragments[selection.name.value]?.selectionSet);
    });
  return info.fieldNodes.some((node) => search(node.selectionSet));
}

/**
 * A catalogue creator's stable key: its catalogue id when it has one, else its name folded to lower case. The rewards
 * ledger's lines and creator claims both name creators by it (docs/creators.md#claims).
 */
export function creatorKey(creator: { id: string | null; name: string }): string {
  return creator.id ? `id:${creator.id}` : `name:${creator.name.trim().toLowerCase()}`;
}

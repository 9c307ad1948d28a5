// A role with its indefinite article, for sentences about a member: "an editor", "an owner", "a viewer".
export function withArticle(role: string): string {
  return `${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}`;
}

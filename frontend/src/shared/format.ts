/** A date as the user's locale writes it, or 'N/A'. */
export function formatLocalDate(iso: string | null | undefined): string {
  if (!iso) return 'N/A';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? 'N/A' : d.toLocaleDateString();
}

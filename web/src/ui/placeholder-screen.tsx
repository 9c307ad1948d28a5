// A screen routed but not built yet: its title and a note, so navigation works while engineers fill screens in.
import { ScreenHeader } from './screen-header';
import { EmptyState } from './states';

export function PlaceholderScreen({ title }: { title: string }) {
  return (
    <>
      <ScreenHeader title={title} />
      <EmptyState
        title="Coming soon"
        description={`The ${title.toLowerCase()} screen is not built yet; the API has it already (/docs).`}
      />
    </>
  );
}

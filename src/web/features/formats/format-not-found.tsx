import { ArrowLeftIcon, FileQuestionIcon } from 'lucide-react';
import { LinkButton } from '../../components/ui/link-button';
import { EmptyState } from '../../components/layout/empty-state';

export function FormatNotFound() {
  return (
    <EmptyState
      icon={FileQuestionIcon}
      title="Format Not Found"
      description="The requested format could not be found."
      action={
        <LinkButton variant="outline" href="/formats" icon={ArrowLeftIcon}>
          Back to My Formats
        </LinkButton>
      }
      className="py-16"
    />
  );
}

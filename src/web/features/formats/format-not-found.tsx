import { ArrowLeftIcon, FileQuestionIcon } from 'lucide-react';
import { Link } from 'wouter';
import { EmptyState } from '../../components/layout/empty-state';
import { Button } from '../../components/ui/button';

export function FormatNotFound() {
  return (
    <EmptyState
      icon={FileQuestionIcon}
      title="Format Not Found"
      description="The requested format could not be found."
      action={
        <Button variant="outline" asChild>
          <Link href="/formats">
            <ArrowLeftIcon /> Back to My Formats
          </Link>
        </Button>
      }
      className="py-16"
    />
  );
}

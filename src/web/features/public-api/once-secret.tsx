import { CopyIcon, KeyRoundIcon } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { toast } from '../../hooks/use-toast';

/** A secret shown once, with a copy button: after this only its last characters are ever shown. */
export function OnceSecret({
  title,
  value,
  label,
  copiedTitle,
  onDone,
  testId,
}: {
  title: string;
  value: string;
  label: string;
  copiedTitle: string;
  onDone: () => void;
  testId: string;
}) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast({ title: copiedTitle, description: 'Keep it somewhere safe, such as your app’s secret settings.' });
    } catch {
      toast({ variant: 'destructive', title: 'Could not copy', description: 'Select it and copy it yourself.' });
    }
  };
  return (
    <Alert data-testid={testId}>
      <KeyRoundIcon />
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription className="space-y-3">
        <p>Copy it now: for your safety it is not shown again.</p>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Input readOnly value={value} aria-label={label} className="font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
          <Button type="button" onClick={() => void copy()}>
            <CopyIcon /> Copy
          </Button>
        </div>
        <Button type="button" variant="outline" size="sm" onClick={onDone}>
          I have stored it
        </Button>
      </AlertDescription>
    </Alert>
  );
}

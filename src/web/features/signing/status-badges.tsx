import { CheckIcon, ClockIcon, XIcon } from 'lucide-react';
import type { TSignatureRequestStatus, TSignerStatus } from '../../../contract/signature-requests';
import { Badge } from '../../components/ui/badge';
import { cn } from '../../lib/utils';

const REQUEST_STATUS: Record<TSignatureRequestStatus, { label: string; variant: 'soft' | 'success' | 'destructive' | 'secondary' }> = {
  sent: { label: 'Sent', variant: 'soft' },
  partly_signed: { label: 'Partly signed', variant: 'soft' },
  completed: { label: 'Completed', variant: 'success' },
  declined: { label: 'Declined', variant: 'destructive' },
  expired: { label: 'Expired', variant: 'secondary' },
  cancelled: { label: 'Cancelled', variant: 'secondary' },
};

export const requestStatusLabel = (status: TSignatureRequestStatus) => REQUEST_STATUS[status].label;

export function RequestStatusBadge({ status, className }: { status: TSignatureRequestStatus; className?: string }) {
  const { label, variant } = REQUEST_STATUS[status];
  return (
    <Badge variant={variant} className={className} data-testid="request-status">
      {label}
    </Badge>
  );
}

const SIGNER_STATUS: Record<TSignerStatus, { label: string; icon?: typeof CheckIcon; className: string }> = {
  // Not invited yet: someone earlier in the order has not signed.
  waiting: { label: 'Waiting', icon: ClockIcon, className: 'border-border bg-background text-muted-foreground' },
  notified: { label: 'Invited', className: 'border-transparent bg-primary-soft text-primary' },
  viewed: { label: 'Viewed', className: 'border-transparent bg-primary-soft text-primary' },
  signed: { label: 'Signed', icon: CheckIcon, className: 'border-transparent bg-success-soft text-[oklch(0.45_0.12_155)]' },
  declined: { label: 'Declined', icon: XIcon, className: 'border-transparent bg-destructive/10 text-destructive' },
};

export function SignerStatusBadge({ status }: { status: TSignerStatus }) {
  const { label, icon: Icon, className } = SIGNER_STATUS[status];
  return (
    <Badge variant="outline" className={cn(className)} data-testid="signer-status">
      {Icon && <Icon aria-hidden />}
      {label}
    </Badge>
  );
}

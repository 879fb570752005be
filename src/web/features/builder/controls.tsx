import { NativeSelect as UiNativeSelect } from '../../components/ui/native-select';
import { IconButton } from '../../components/ui/icon-button';
import { AlignCenterIcon, AlignJustifyIcon, AlignLeftIcon, AlignRightIcon, type LucideIcon } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from '../../lib/utils';

/** The builder's amber for warnings that ask for a change but block nothing (its text over 8:1 on its ground). */
export const WARNING_TONE = 'border-[oklch(0.88_0.08_80)] bg-[oklch(0.985_0.025_85)] text-[oklch(0.42_0.09_60)]';

/** The builder's compact select. */
export function NativeSelect(props: ComponentProps<typeof UiNativeSelect>) {
  return <UiNativeSelect size="sm" {...props} />;
}

export function ToolGroup({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div role="group" aria-label={label} className={cn('inline-flex items-center gap-0.5 rounded-lg border bg-background p-0.5 shadow-xs', className)}>
      {children}
    </div>
  );
}

const ALIGN_ICONS: Record<string, LucideIcon> = {
  left: AlignLeftIcon,
  center: AlignCenterIcon,
  right: AlignRightIcon,
  justify: AlignJustifyIcon,
};

export function AlignGroup<T extends string>({ value, options, onChange }: { value: T; options: readonly T[]; onChange: (value: T) => void }) {
  return (
    <ToolGroup label="Alignment">
      {options.map((o) => (
        <IconButton key={o} icon={ALIGN_ICONS[o] ?? AlignLeftIcon} label={`Align ${o}`} pressed={value === o} onClick={() => onChange(o)} />
      ))}
    </ToolGroup>
  );
}

export function SectionTitle({ children, hint }: { children: ReactNode; hint?: ReactNode }) {
  return (
    <div className="mb-2.5 flex items-baseline justify-between gap-2">
      <h2 className="text-[11px] font-semibold tracking-wider text-muted-foreground/90 uppercase">{children}</h2>
      {hint && <span className="truncate text-[11px] text-muted-foreground">{hint}</span>}
    </div>
  );
}

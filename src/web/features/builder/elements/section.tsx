import { GroupIcon } from 'lucide-react';
import { useRef, type ReactNode } from 'react';
import type { TSectionElement } from '../../../../contract/format-content';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { DEFAULT_SECTION_TITLE } from '../model';
import { Empty, Toolbar, useFocusOnOpen, type ElementUpdater } from './shared';

const isDefaultTitle = (value: string) => value === DEFAULT_SECTION_TITLE;

/** A section on the canvas: its name, then its elements as they print. */
export function SectionView({ el, children }: { el: TSectionElement; children: ReactNode }) {
  return (
    <div className="rounded-md border border-dashed border-primary/30 bg-primary-soft/20 px-3 py-2">
      <p className="mb-1.5 flex items-center gap-1.5 text-xs font-medium text-primary">
        <GroupIcon className="size-3.5" aria-hidden /> {el.title || 'Section'}
      </p>
      {el.elements.length === 0 ? <Empty>Empty section: add elements to it</Empty> : <div className="space-y-3">{children}</div>}
    </div>
  );
}

export function SectionEditor({ el, update }: { el: TSectionElement; index: number; update: ElementUpdater }) {
  const ref = useRef<HTMLInputElement>(null);
  useFocusOnOpen(ref, isDefaultTitle);
  return (
    <Toolbar>
      <div className="w-full space-y-1.5">
        <Label htmlFor={`section-title-${el.id}`}>Section name (shown here only, not printed)</Label>
        <Input
          id={`section-title-${el.id}`}
          ref={ref}
          value={el.title}
          onChange={(e) => update((x) => (x.type === 'section' ? { ...x, title: e.target.value } : x))}
        />
      </div>
    </Toolbar>
  );
}

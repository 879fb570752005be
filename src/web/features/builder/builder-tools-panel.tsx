import type { Dispatch } from 'react';
import type { TElement, TElementType } from '../../../contract/format-content';
import type { TPlaceholder } from '../../../contract/placeholders';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { cn } from '../../lib/utils';
import type { BuilderAction } from './builder-reducer';
import { SectionTitle } from './controls';
import { DocumentNameField } from './document-name-field';
import { effectiveStyle } from './elements/shared';
import { describeElement, findElement, type BuilderDoc, type PlaceholderUsage } from './model';
import { PageSetup } from './page-setup';
import { PlaceholderPanel } from './placeholder-panel';
import { ElementPalette, FormattingHints, StyleControls } from './sidebar';

/** The left panel (a view of its own on phones): elements, style, placeholders, page setup and details. */
export function BuilderToolsPanel({
  doc,
  visible,
  styleTarget,
  usage,
  dispatch,
  onAdd,
  onAddPlaceholder,
  onEditPlaceholder,
  onDeletePlaceholder,
}: {
  doc: BuilderDoc;
  /** Whether the tools are the chosen view (they always show from lg up). */
  visible: boolean;
  /** The element being edited when it takes a text style; else the style is the whole document's. */
  styleTarget: Exclude<TElement, { type: 'image' }> | undefined;
  usage: PlaceholderUsage;
  dispatch: Dispatch<BuilderAction>;
  onAdd: (type: TElementType) => void;
  onAddPlaceholder: (p: TPlaceholder) => void;
  onEditPlaceholder: (p: TPlaceholder) => void;
  onDeletePlaceholder: (name: string) => void;
}) {
  const inherited = effectiveStyle(doc.content.style, undefined);
  const scopeLabel = styleTarget
    ? (describeElement(styleTarget, findElement(doc.content.elements, styleTarget.id)?.index ?? 0).split(':')[0] ?? 'Element')
    : 'Whole document';
  return (
    <aside id="builder-panel-tools" aria-label="Builder tools" className={cn('space-y-6', visible ? 'block' : 'hidden lg:block')} data-testid="builder-sidebar">
      <ElementPalette onAdd={onAdd} />
      <StyleControls
        scopeLabel={scopeLabel}
        isElement={!!styleTarget}
        style={styleTarget ? styleTarget.style : doc.content.style}
        inherited={inherited}
        onChange={(style) => dispatch({ type: 'set-style', elementId: styleTarget?.id ?? null, style })}
      />
      <PlaceholderPanel placeholders={doc.placeholders} usage={usage} onAdd={onAddPlaceholder} onEdit={onEditPlaceholder} onDelete={onDeletePlaceholder} />
      <PageSetup content={doc.content} update={(update) => dispatch({ type: 'update-content', update })} />
      <section aria-labelledby="details-title">
        <SectionTitle>
          <span id="details-title">Details</span>
        </SectionTitle>
        <Label htmlFor="format-description" className="mb-1.5 text-xs text-muted-foreground">
          Description (shown on the form)
        </Label>
        <Input
          id="format-description"
          value={doc.description}
          maxLength={2000}
          placeholder="e.g. Offer letter for new hires"
          onChange={(e) => dispatch({ type: 'describe', description: e.target.value })}
          className="h-9"
        />
        <DocumentNameField
          formatName={doc.name}
          content={doc.content}
          placeholders={doc.placeholders}
          update={(update) => dispatch({ type: 'update-content', update })}
        />
      </section>
      <FormattingHints />
    </aside>
  );
}

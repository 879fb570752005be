import { useCallback, useEffect, useMemo, useRef, type Dispatch } from 'react';
import type { TElement } from '../../../contract/format-content';
import { ToastAction } from '../../components/ui/toast';
import { toast } from '../../hooks/use-toast';
import type { BuilderAction } from './builder-reducer';
import type { TElementActions } from './canvas';
import { allElementIds, describeElement, findElement, newElementId } from './model';

/**
 * What the canvas does to elements: choose which is edited, insert, duplicate, update, move and
 * delete (with Undo on the toast). The callbacks read the latest elements through a ref, so they
 * keep their identity across renders and the canvas's memoised rows do not re-render.
 */
export function useElementActions({
  elements,
  editingId,
  setEditingId,
  clearInsertTarget,
  dispatch,
}: {
  elements: TElement[];
  editingId: string | null;
  setEditingId: (id: string | null) => void;
  clearInsertTarget: () => void;
  dispatch: Dispatch<BuilderAction>;
}) {
  const edit = useCallback(
    (id: string | null) => {
      setEditingId(id);
      if (id === null) clearInsertTarget();
    },
    [clearInsertTarget, setEditingId],
  );

  const latest = useRef({ elements, editingId });
  useEffect(() => {
    latest.current = { elements, editingId };
  });

  /**
   * A new element goes after `afterId` (the one being edited, by default), in the same section if
   * it is in one; into a section that is being edited, at its end; else at the end of the format.
   */
  const insertElement = useCallback(
    (element: TElement, afterId: string | null = latest.current.editingId) => {
      const found = afterId ? findElement(latest.current.elements, afterId) : undefined;
      if (found?.element.type === 'section' && element.type !== 'section' && afterId === latest.current.editingId) {
        dispatch({ type: 'add-element', element, sectionId: found.element.id });
      } else if (found?.section && element.type !== 'section') {
        dispatch({ type: 'add-element', element, sectionId: found.section.id, index: found.index + 1 });
      } else {
        const top = found?.section ? latest.current.elements.indexOf(found.section) : found?.index;
        dispatch({ type: 'add-element', element, index: top === undefined ? undefined : top + 1 });
      }
      edit(element.id);
    },
    [edit, dispatch],
  );

  const duplicateElement = useCallback(
    (id: string) => {
      const el = findElement(latest.current.elements, id)?.element;
      if (!el) return;
      const copy = structuredClone(el);
      // Every copied element gets a new id, a section's elements too.
      const taken = allElementIds(latest.current.elements);
      const fresh = () => {
        const next = newElementId(taken.map((tid) => ({ id: tid })) as TElement[]);
        taken.push(next);
        return next;
      };
      copy.id = fresh();
      if (copy.type === 'section') copy.elements = copy.elements.map((child) => ({ ...child, id: fresh() }));
      insertElement(copy, id);
    },
    [insertElement],
  );

  const updateElement = useCallback((id: string, update: (el: TElement) => TElement) => dispatch({ type: 'update-element', id, update }), [dispatch]);
  const moveElement = useCallback((id: string, delta: -1 | 1) => dispatch({ type: 'move-element', id, delta }), [dispatch]);
  const moveAcrossSection = useCallback((id: string, direction: 'into-above' | 'out') => dispatch({ type: 'move-across-section', id, direction }), [dispatch]);
  const reorder = useCallback((activeId: string, overId: string) => dispatch({ type: 'reorder', activeId, overId }), [dispatch]);

  const deleteElement = useCallback(
    (id: string) => {
      const found = findElement(latest.current.elements, id);
      dispatch({ type: 'delete-element', id });
      if (latest.current.editingId === id) edit(null);
      if (!found) return;
      const { element: el, index: i, section } = found;
      const t = toast({
        title: 'Element Deleted',
        description: `${describeElement(el, i)} was removed.`,
        action: (
          <ToastAction
            altText="Undo deleting the element"
            onClick={() => {
              if (!findElement(latest.current.elements, el.id))
                dispatch({ type: 'add-element', element: el, index: i, ...(section ? { sectionId: section.id } : {}) });
              t.dismiss();
            }}
          >
            Undo
          </ToastAction>
        ),
      });
    },
    [edit, dispatch],
  );

  const elementActions: TElementActions = useMemo(
    () => ({ edit, update: updateElement, move: moveElement, remove: deleteElement, duplicate: duplicateElement, moveAcross: moveAcrossSection }),
    [edit, updateElement, moveElement, deleteElement, duplicateElement, moveAcrossSection],
  );
  return { latest, edit, insertElement, elementActions, reorder };
}

import * as React from 'react';
import type { ToastActionElement, ToastProps } from '../components/ui/toast';
import { isUnauthorizedError, readApiError } from '../lib/api';

/** At most one toast at a time; removal 1000000 ms after dismissal (docs/decisions.md). */
export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY = 1_000_000;

type ToasterToast = ToastProps & {
  id: string;
  title?: React.ReactNode;
  description?: React.ReactNode;
  action?: ToastActionElement;
};

type Action =
  | { type: 'ADD_TOAST'; toast: ToasterToast }
  | { type: 'UPDATE_TOAST'; toast: Partial<ToasterToast> }
  | { type: 'DISMISS_TOAST'; toastId?: string }
  | { type: 'REMOVE_TOAST'; toastId?: string };

interface State {
  toasts: ToasterToast[];
}

let count = 0;
function genId(): string {
  count = (count + 1) % Number.MAX_SAFE_INTEGER;
  return count.toString();
}

const toastTimeouts = new Map<string, ReturnType<typeof setTimeout>>();

function addToRemoveQueue(toastId: string): void {
  if (toastTimeouts.has(toastId)) return;
  const timeout = setTimeout(() => {
    toastTimeouts.delete(toastId);
    dispatch({ type: 'REMOVE_TOAST', toastId });
  }, TOAST_REMOVE_DELAY);
  toastTimeouts.set(toastId, timeout);
}

export function reducer(state: State, action: Action): State {
  switch (action.type) {
    case 'ADD_TOAST':
      return { ...state, toasts: [action.toast, ...state.toasts].slice(0, TOAST_LIMIT) };
    case 'UPDATE_TOAST':
      return {
        ...state,
        toasts: state.toasts.map((t) => (t.id === action.toast.id ? { ...t, ...action.toast } : t)),
      };
    case 'DISMISS_TOAST': {
      const { toastId } = action;
      if (toastId) addToRemoveQueue(toastId);
      else for (const t of state.toasts) addToRemoveQueue(t.id);
      return {
        ...state,
        toasts: state.toasts.map((t) => (t.id === toastId || toastId === undefined ? { ...t, open: false } : t)),
      };
    }
    case 'REMOVE_TOAST':
      if (action.toastId === undefined) return { ...state, toasts: [] };
      return { ...state, toasts: state.toasts.filter((t) => t.id !== action.toastId) };
  }
}

const listeners: Array<(state: State) => void> = [];
let memoryState: State = { toasts: [] };

function dispatch(action: Action): void {
  memoryState = reducer(memoryState, action);
  for (const listener of listeners) listener(memoryState);
}

type Toast = Omit<ToasterToast, 'id'>;

/** The toast raised most recently, shown or not. */
let latestId: string | null = null;

export interface ToastHandle {
  id: string;
  dismiss: () => void;
  update: (next: ToasterToast) => void;
  /**
   * Raises `props` as a follow-up to this toast (the builder's 'Form Ready', 2 s after 'Success'),
   * unless another toast has been raised since; returns the new toast, or null when skipped.
   * With TOAST_LIMIT 1 each new toast replaces the one on screen, so a late follow-up would
   * otherwise wipe out newer news the user caused meanwhile: 'Content Cleared', or 'Element
   * Deleted' with its Undo.
   */
  followUp: (props: Toast) => ToastHandle | null;
}

export function toast(props: Toast): ToastHandle {
  const id = genId();
  latestId = id;
  const update = (next: ToasterToast) => dispatch({ type: 'UPDATE_TOAST', toast: { ...next, id } });
  const dismiss = () => dispatch({ type: 'DISMISS_TOAST', toastId: id });
  const followUp = (next: Toast) => (latestId === id ? toast(next) : null);
  dispatch({
    type: 'ADD_TOAST',
    toast: {
      ...props,
      id,
      open: true,
      onOpenChange: (open) => {
        if (!open) dismiss();
      },
    },
  });
  return { id, dismiss, update, followUp };
}

export function useToast() {
  const [state, setState] = React.useState<State>(memoryState);
  React.useEffect(() => {
    listeners.push(setState);
    return () => {
      const index = listeners.indexOf(setState);
      if (index > -1) listeners.splice(index, 1);
    };
  }, []);
  return {
    ...state,
    toast,
    dismiss: (toastId?: string) => dispatch({ type: 'DISMISS_TOAST', toastId }),
  };
}

/**
 * An `onError` that says in a toast what went wrong, in the server's words when it gave readable
 * ones. A signed-out session toasts nothing: the sign-in prompt already explains it.
 */
export function toastApiError(title: string, fallback?: string): (error: unknown) => void {
  return (error) => {
    if (!isUnauthorizedError(error)) toast({ variant: 'destructive', title, description: readApiError(error, fallback).message });
  };
}

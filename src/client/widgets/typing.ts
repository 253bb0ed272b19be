// How a widget hands over a typed change: the generic form applies it after the keystroke's frame, in a transition
// (renderer/TypingForm.tsx), so that frame draws only the input. Outside such a form, at once.
import { createContext } from 'react';

export const TypingContext = createContext<(change: () => void) => void>((change) => change());

// Another screen asks the On call screen to show one incident (History: "the incident this call was
// placed for"). Small on purpose: History loads it without loading the On call screen.
import { createStore, useStore } from '../../app/store';
import { navigate } from '../../app/navigation';

const requested = createStore<number | null>(null);

/** Goes to On call, its Incidents tab, with incident `id` open. */
export function openIncident(id: number): void {
  requested.set(id);
  navigate('oncall');
}

/** The incident another screen asked to show, until the Incidents tab has shown it (then `done`). */
export function useIncidentRequest(): { id: number | null; done: () => void } {
  return { id: useStore(requested), done: () => requested.set(null) };
}

import { createContext, useContext } from "react";
import type { SubflowTargets } from "./subflow-targets";

/**
 * The editor's subflow targets for the canvas nodes, the inspector and template completion.
 * Undefined outside the editor (the run page's read-only canvas): then nothing is known about them.
 */
const SubflowTargetsContext = createContext<SubflowTargets | undefined>(undefined);

export const SubflowTargetsProvider = SubflowTargetsContext.Provider;

export const useSubflowTargets = (): SubflowTargets | undefined => useContext(SubflowTargetsContext);

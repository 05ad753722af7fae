import { createContext, useContext } from "react";

/** A model provider of the user, as the model picker offers it (never its key). */
export interface ProviderChoice {
  id: string;
  name: string;
  defaultModel: string;
}

/**
 * The user's providers for the inspector's model picker. Undefined outside the editor (the run
 * page's read-only canvas): the picker then falls back to a plain model name field.
 */
const ModelChoicesContext = createContext<ProviderChoice[] | undefined>(undefined);

export const ModelChoicesProvider = ModelChoicesContext.Provider;

export const useModelChoices = (): ProviderChoice[] | undefined => useContext(ModelChoicesContext);

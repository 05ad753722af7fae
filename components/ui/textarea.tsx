export { Textarea } from "./input";

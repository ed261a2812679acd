/**
 * What a face tells the user when the engine cut an answer that kept repeating itself
 * (`loop_warning`); the event's own message is the one written for the model.
 */
export const loopWarningNotice =
  "The answer kept repeating itself, so it was cut off; the model was told and asked again.";
